"""`ardsearch serve`: the browser front end, an ASGI app (Starlette on uvicorn).

One WebSocket a browser tab carries its games: the tab sends JSON commands,
the server answers with the state of the game as that tab's seat sees it.
Each table belongs to the connection that opened it: another connection
cannot name it. Bot searches run in worker threads, at most `max_searches`
at once for the whole server; a closed tab stops its searches.

The app never names a game: the list comes from ardsearch.list_games(),
and each game's drawing code is its own folder's board.js.
"""
from __future__ import annotations

import asyncio
import json
import re
from importlib import resources

import ardsearch
from ardsearch.web.protocol import ProtocolError, parse_message
from ardsearch.web.tables import FULL, Table, new_table, side_titles, summarize

MAX_MESSAGE = 1 << 16          # bytes of one browser message
MAX_TABLES = 8                 # open games per connection
BOARD_MODULE = re.compile(r"board(_[a-z]+)?")   # a game's drawing modules: board.js, board_<concern>.js
WATCH_DELAYS = {"slow": 1.5, "normal": 0.6, "fast": 0.15, "instant": 0.0}


def _static(name: str) -> bytes:
    return (resources.files("ardsearch.web") / "static" / name).read_bytes()


def game_catalogue() -> dict:
    """What the start page offers: each game's parameters and sides, the presets."""
    from ardsearch.bots import list_bots, preset_description
    games = []
    for name in ardsearch.list_games():
        game = ardsearch.load_game(name)
        params = [{"name": p.name, "type": p.type.__name__, "default": p.default, "meaning": p.meaning,
                   "choices": list(p.choices) if p.choices else None,
                   "min": p.min, "max": p.max} for p in game.spec.params]
        from ardsearch.records import side_names
        games.append({"name": name, "title": game.title, "params": params,
                      "sides": list(side_names(game)), "titles": list(side_titles(game)),
                      "hidden": game.hidden_information, "chance": game.has_chance})
    from ardsearch.levels import levels, not_stronger_by_game
    ranked = {lv.preset: lv for lv in levels()}
    bots = [{"name": b, "description": preset_description(b)} for b in list_bots() if b not in ranked]
    # the difficulty levels, weakest first, by name; elo: measured per game (random = 0);
    # not_stronger: per game, the weaker level it was not measured stronger than
    flat = not_stronger_by_game(list(ranked.values()))
    levels_ = [{"name": lv.preset, "title": lv.title, "level": lv.number, "description": lv.description,
                "elo": {g: round(e) for g, e in lv.elo.items()},
                "not_stronger": {g: flat[g][lv.preset] for g in lv.elo if lv.preset in flat[g]}}
               for lv in ranked.values()]
    return {"games": games, "bots": bots, "levels": levels_, "version": ardsearch.__version__}


class Connection:
    """One browser tab: its tables and the tasks working for them."""

    def __init__(self, ws, searches: asyncio.Semaphore):
        self.ws = ws
        self.searches = searches
        self.tables: dict[str, Table] = {}
        self.tasks: dict[str, asyncio.Task] = {}
        self.watch: dict[str, str] = {}          # table -> speed, for bot-vs-bot games
        self.closed = False

    async def send(self, message: dict) -> None:
        if not self.closed:
            await self.ws.send_text(json.dumps(message))

    async def error(self, message: str, table: str | None = None) -> None:
        await self.send({"type": "error", "message": message, "table": table})

    def table(self, msg) -> Table:
        table = self.tables.get(msg.get("table"))
        if table is None:
            raise ProtocolError("no such game on this connection (it may have been closed)")
        return table

    # --- commands ---------------------------------------------------------------
    async def handle(self, raw: str) -> None:
        msg = parse_message(raw)
        kind = msg["type"]
        if kind == "new":
            if len(self.tables) >= MAX_TABLES:
                raise ProtocolError(f"at most {MAX_TABLES} games at once: close one first")
            seed = msg.get("seed")
            if seed is None:
                from ardsearch.terminal import new_seed
                seed = new_seed()
            try:
                table = new_table(msg["game"], msg.get("params") or {}, msg["seats"], seed,
                                  msg.get("audience", 0))
            except ValueError as exc:
                raise ProtocolError(str(exc)) from None
            self.tables[table.id] = table
            self.watch[table.id] = msg.get("speed", "normal")
            await self.send(table.snapshot())
            self.kick(table)
            return
        if kind == "load":
            from ardsearch.session import HUMAN, Session
            import tempfile
            with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=True) as f:
                f.write(msg["record"].strip() + "\n")
                f.flush()
                try:
                    session = Session.load(f.name)
                except (OSError, ValueError) as exc:
                    raise ProtocolError(f"cannot load this record: {str(exc).replace(f.name, 'record')}") from None
            humans = [i for i, s in enumerate(session.seats) if s.kind == HUMAN]
            if len(humans) > 1:
                raise ProtocolError("this record seats two people; the browser seats one")
            table = Table(session, humans[0] if humans else FULL)
            table.analyses = [None] * len(session.record.moves)
            self.tables[table.id] = table
            await self.send(table.snapshot())
            self.kick(table)
            return
        table = self.table(msg)
        if kind == "move":
            await self.human_move(table, msg["move"])
        elif kind == "undo":
            await self.undo(table)
        elif kind == "hint":
            await self.hint(table)
        elif kind == "stop":
            self.stop(table)
        elif kind == "jump":
            try:
                await self.send(table.position_at(msg["ply"]))
            except ValueError as exc:
                raise ProtocolError(str(exc)) from None
        elif kind == "save":
            await self.send({"type": "record", "table": table.id, "text": table.session.record.to_line()})
        elif kind == "speed":
            self.watch[table.id] = msg["speed"]
        elif kind == "pause":
            self.watch[table.id] = "paused"
            self.stop(table)
        elif kind == "resume":
            self.watch[table.id] = msg.get("speed", "normal")
            self.kick(table)
        elif kind == "close":
            self.stop(table)
            self.tables.pop(table.id, None)
            await self.send({"type": "closed", "table": table.id})

    async def human_move(self, table: Table, text: str) -> None:
        if table.thinking:
            raise ProtocolError("the bot is thinking: wait for its move (or stop it)")
        s = table.session
        if table.audience == FULL or s.to_move() != table.audience or not s.waiting_for_human():
            raise ProtocolError("it is not your move")
        try:
            s.move(text)
        except ValueError as exc:
            # the refusal names the move already ("'X' is not a legal move here: ..."), as in the terminal
            raise ProtocolError(str(exc)) from None
        table.analyses.append(None)
        await self.send(table.snapshot())
        self.kick(table)

    async def undo(self, table: Table) -> None:
        if table.audience == FULL:
            raise ProtocolError("a spectator cannot take moves back")
        self.stop(table)
        await self.wait_idle(table)
        try:
            table.session.undo(table.audience)
        except ValueError as exc:
            raise ProtocolError(str(exc)) from None
        del table.analyses[len(table.session.record.moves):]
        await self.send(table.snapshot())

    async def hint(self, table: Table) -> None:
        s = table.session
        if table.audience == FULL or s.to_move() != table.audience:
            raise ProtocolError("a hint is for your own move")
        if table.thinking:
            raise ProtocolError("already thinking")
        view = table.seat_view()
        bot = ardsearch.load_bot("mcts-fast", s.game, seed=s.seed)
        table.thinking = True
        await self.send({"type": "thinking", "table": table.id, "on": True, "what": "hint"})
        try:
            async with self.searches:
                info = await asyncio.to_thread(bot.analyze, view.clone())
        finally:
            table.thinking = False
        await self.send({"type": "analysis", "table": table.id, "kind": "hint", "info": summarize(info, view)})
        await self.send({"type": "thinking", "table": table.id, "on": False})

    # --- bots and chance ------------------------------------------------------------
    def kick(self, table: Table) -> None:
        """Starts playing chance and bot moves for this table if none is running."""
        task = self.tasks.get(table.id)
        if task is None or task.done():
            self.tasks[table.id] = asyncio.create_task(self.run_bots(table))

    async def wait_idle(self, table: Table) -> None:
        task = self.tasks.get(table.id)
        if task is not None and not task.done():
            try:
                await asyncio.wait_for(asyncio.shield(task), timeout=30)
            except (asyncio.TimeoutError, asyncio.CancelledError):
                pass

    def stop(self, table: Table) -> None:
        for seat in table.session.seats:
            if seat.bot is not None:
                seat.bot.stop()
        task = self.tasks.get(table.id)
        if task is not None and not task.done() and not table.thinking:
            task.cancel()

    async def run_bots(self, table: Table) -> None:
        s = table.session
        spectators = not any(seat.kind == "human" for seat in s.seats)
        while not self.closed and table.id in self.tables and not s.over() and not s.waiting_for_human():
            if spectators:
                speed = self.watch.get(table.id, "normal")
                if speed == "paused":
                    return
                await asyncio.sleep(WATCH_DELAYS.get(speed, 0.6))
            if s.to_move() >= 0:
                # the search runs on a copy in a worker thread; the session only
                # changes here, on the event loop, so snapshots never see half a move
                table.thinking = True
                await self.send({"type": "thinking", "table": table.id, "on": True, "what": "bot"})
                try:
                    async with self.searches:
                        thought = await asyncio.to_thread(s.think)
                finally:
                    table.thinking = False
                if self.closed or table.id not in self.tables:
                    return
                try:
                    event = s.commit(thought)
                except ValueError:          # undone meanwhile: think again
                    continue
            else:
                event = s.chance_step()
            table.analyses.append(summarize(event.info, s.state) if event.info else None)
            if event.info and (table.audience == FULL or event.player == table.audience or spectators):
                await self.send({"type": "analysis", "table": table.id, "kind": "bot",
                                 "info": table.analyses[-1]})
            await self.send(table.snapshot())

    async def close(self) -> None:
        self.closed = True
        for table in self.tables.values():
            self.stop(table)
        for task in self.tasks.values():
            task.cancel()


def create_app(max_searches: int = 2):
    """The ASGI app. `max_searches`: bot searches running at once, all tabs together."""
    from starlette.applications import Starlette
    from starlette.responses import JSONResponse, PlainTextResponse, Response
    from starlette.routing import Route, WebSocketRoute
    from starlette.websockets import WebSocketDisconnect

    searches = asyncio.Semaphore(max_searches)
    types = {"js": "text/javascript", "css": "text/css", "html": "text/html", "svg": "image/svg+xml"}

    async def index(request):
        return Response(_static("index.html"), media_type="text/html")

    async def static(request):
        name = request.path_params["name"]
        if "/" in name or name.startswith(".") or "." not in name:
            return PlainTextResponse("not found", status_code=404)
        try:
            data = _static(name)
        except (FileNotFoundError, IsADirectoryError):
            return PlainTextResponse("not found", status_code=404)
        return Response(data, media_type=types.get(name.rsplit(".", 1)[1], "application/octet-stream"))

    async def board(request):
        name = request.path_params["game"]
        # board.js and the modules it imports, board_<concern>.js (one job each): nothing else of the package
        module = request.path_params.get("module", "board")
        if name not in ardsearch.list_games():
            return PlainTextResponse("no such game", status_code=404)
        if not BOARD_MODULE.fullmatch(module):
            return PlainTextResponse("a game serves only board.js and board_<name>.js", status_code=404)
        try:
            data = (resources.files(f"ardsearch.games.{name}") / f"{module}.js").read_bytes()
        except FileNotFoundError:
            return PlainTextResponse(f"this game has no {module}.js", status_code=404)
        return Response(data, media_type="text/javascript")

    async def catalogue(request):
        return JSONResponse(game_catalogue())

    async def rules(request):
        name = request.path_params["game"]
        if name not in ardsearch.list_games():
            return PlainTextResponse("no such game", status_code=404)
        from ardsearch.terminal import rules_text
        return PlainTextResponse(rules_text(name))

    async def socket(ws):
        await ws.accept()
        conn = Connection(ws, searches)
        try:
            while True:
                raw = await ws.receive_text()
                if len(raw) > MAX_MESSAGE:
                    await conn.error(f"message too long ({len(raw)} bytes; the limit is {MAX_MESSAGE})")
                    continue
                try:
                    await conn.handle(raw)
                except ProtocolError as exc:
                    await conn.error(str(exc), _table_of(raw))
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            await conn.close()

    return Starlette(routes=[
        Route("/", index), Route("/static/{name}", static), Route("/games/{game}/board.js", board),
        Route("/games/{game}/{module:str}.js", board),
        Route("/api/games", catalogue), Route("/api/rules/{game}", rules), WebSocketRoute("/ws", socket),
    ])


def _table_of(raw: str):
    try:
        msg = json.loads(raw)
        return msg.get("table") if isinstance(msg, dict) and isinstance(msg.get("table"), str) else None
    except (ValueError, RecursionError):
        return None


def serve(host: str = "127.0.0.1", port: int = 0, max_searches: int = 2, open_browser: bool = False) -> int:
    """Runs the app until Ctrl-C; port 0 picks a free port. Prints the URL."""
    import socket as socketlib
    import sys
    try:
        import uvicorn
    except ImportError:
        print("ardsearch serve needs the web extra: pip install \"ardsearch[web]\"", file=sys.stderr)
        return 2
    sock = socketlib.socket(socketlib.AF_INET6 if ":" in host else socketlib.AF_INET)
    sock.setsockopt(socketlib.SOL_SOCKET, socketlib.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        print(f"ardsearch serve: cannot listen on {host}:{port}: {exc.strerror}; "
              f"choose another --port (0 picks a free one)", file=sys.stderr)
        return 2
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    url = f"http://{shown}:{bound}/"
    if host not in ("127.0.0.1", "localhost", "::1"):
        print(f"warning: listening on {host}, beyond this machine: anyone who can reach it can play "
              "and use its CPU (there is no login)", file=sys.stderr)
    print(f"ardsearch {ardsearch.__version__}: open {url} in a browser (Ctrl-C stops the server)", flush=True)
    if open_browser:
        import webbrowser
        webbrowser.open(url)
    config = uvicorn.Config(create_app(max_searches), log_level="warning", ws_max_size=MAX_MESSAGE * 2)
    server = uvicorn.Server(config)
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:
        pass
    return 0
