"""The staff's pages: the curators' view of the path and its statistics, the admin's branding."""
