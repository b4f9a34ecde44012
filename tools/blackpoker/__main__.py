from blackpoker.cli import main

main()
