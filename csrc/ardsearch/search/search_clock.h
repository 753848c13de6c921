/* The clock a search's time_limit counts: wall time, or the searching
 * thread's own CPU time. No Python here: the expectimax core and the MCTS
 * workers include it, and read it every N nodes / simulations only. */
#ifndef ARDSEARCH_SEARCH_CLOCK_H
#define ARDSEARCH_SEARCH_CLOCK_H

#include <time.h>

#include <chrono>

namespace ard {

/* CPU seconds the calling thread has used (CLOCK_THREAD_CPUTIME_ID). A search
 * whose time limit counts this instead of wall time gets the same work on a
 * loaded machine as on an idle one, which equal-time matches need: other
 * processes' time slices are not charged to it. */
inline double thread_cpu_seconds() {
#ifdef CLOCK_THREAD_CPUTIME_ID
    timespec ts;
    if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) == 0) return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
    return 0.0;
}

/* The time a search has used against its time_limit: wall seconds since
 * start(), or (cpu) the CPU seconds the thread that called start() has used
 * since. Read it on that thread: a CPU clock is per thread. */
struct SearchClock {
    bool cpu = false;
    std::chrono::steady_clock::time_point wall0 = std::chrono::steady_clock::now();
    double cpu0 = 0.0;
    void start(bool use_cpu, std::chrono::steady_clock::time_point wall_start) {
        cpu = use_cpu;
        wall0 = wall_start;
        cpu0 = thread_cpu_seconds();
    }
    double elapsed() const {
        return cpu ? thread_cpu_seconds() - cpu0
                   : std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    }
    double cpu_used() const { return thread_cpu_seconds() - cpu0; }
};

}  // namespace ard

#endif
