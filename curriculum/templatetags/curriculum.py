from django import template

from lib.durations import duration, video_time

register = template.Library()
register.filter("duration", duration)
register.filter("video_time", video_time)
