"""A request id on every response and every log line, so one request can be followed in the logs."""

import contextvars
import logging
import re
import uuid

current_request_id = contextvars.ContextVar("request_id", default="-")
ACCEPTABLE_INCOMING_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")


class RequestIdMiddleware:
    """Keep the load balancer's X-Request-ID when it is sane, otherwise make one."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        incoming = request.headers.get("X-Request-ID", "")
        request.id = incoming if ACCEPTABLE_INCOMING_ID.match(incoming) else uuid.uuid4().hex
        token = current_request_id.set(request.id)
        try:
            response = self.get_response(request)
        finally:
            current_request_id.reset(token)
        response["X-Request-ID"] = request.id
        return response


class RequestIdFilter(logging.Filter):
    def filter(self, record):
        # Django logs 4xx responses after the middleware chain has returned, when the context
        # variable is already reset; those records carry the request itself.
        request = getattr(record, "request", None)
        record.request_id = getattr(request, "id", None) or current_request_id.get()
        return True


class OneLineFormatter(logging.Formatter):
    """Tracebacks and multi-line messages folded onto one line, so each event is one line."""

    def format(self, record):
        return super().format(record).replace("\n", " ⏎ ")


class WithoutRateRefusals(logging.Filter):
    """Leaves out django.request's warning for each 429 answered to a client that authenticates by
    a header (an editor plugin, the command line, an API token): past its rate limit such a client
    sends on (an offline queue replayed, a flood), a line per refused request. The access log has
    each one, with its status. A person's refusal (a sign-in lockout) is still logged."""

    def filter(self, record):
        request = getattr(record, "request", None)
        machine = request is not None and "Authorization" in request.headers
        return not (machine and getattr(record, "status_code", None) == 429)
