"""The benchmark: `make bench` runs bench/run.py; its settings and URLconf serve the site plus a floor."""

# Where bench/urls.py serves the floor view, and only there: the site has no such page.
FLOOR_PATH = "/bench/floor/"
