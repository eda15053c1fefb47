import sys

from cardtable.server import main

sys.exit(main())
