"""Conversion between the official data files (act.yaml, act-frame.yaml, frame.yaml) and our definitions."""
