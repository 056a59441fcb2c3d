"""``python -m baobei_conform``: the same command as ``baobei-conform``."""

import sys

from baobei_conform.cli.main import main

sys.exit(main())
