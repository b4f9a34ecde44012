"""The build and its steps, the Sphinx runner, the balance study's runs and the live preview: the top layer under the command line."""
