"""`python -m ardsearch.protocol [commands...] [--compliance [CMD]]`: the engine."""
import sys

from .engine import main

sys.exit(main(sys.argv[1:]))
