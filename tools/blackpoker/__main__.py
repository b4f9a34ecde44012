from blackpoker.cli.main import main

main()
