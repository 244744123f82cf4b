"""English dates that no reader can misread, wherever they live (FORMAT_MODULE_PATH).

Django's "en" formats are American (12/04/2026 is 4 December to a European and 12 April to
an American), and a browser asking for en-GB still gets "en": only LANGUAGES' codes are
served, and a second English in LANGUAGES would be a second choice in the switcher and in
every profile. Parcours' English readers are everywhere, so its dates name the month, day
first, and weeks start on Monday as the product's weeks do. Only what differs from Django's
"en" is set; everything else (input formats, numbers) stays Django's.
"""

DATE_FORMAT = "j F Y"  # 3 December 2026
DATETIME_FORMAT = "j F Y, H:i"  # 3 December 2026, 18:30
SHORT_DATE_FORMAT = "j M Y"  # 3 Dec 2026
SHORT_DATETIME_FORMAT = "j M Y, H:i"  # 3 Dec 2026, 18:30
MONTH_DAY_FORMAT = "j F"  # 3 December
TIME_FORMAT = "H:i"  # 18:30
FIRST_DAY_OF_WEEK = 1  # Monday
