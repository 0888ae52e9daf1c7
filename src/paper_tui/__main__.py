from paper_tui.cli import main

raise SystemExit(main())
