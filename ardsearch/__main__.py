import sys

from ardsearch.cli import main

sys.exit(main())
