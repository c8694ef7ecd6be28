import sys

from cllint.cli.main import main

sys.exit(main())
