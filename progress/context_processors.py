"""What progress adds to the curriculum's pages, through the include hooks their templates offer."""


def resource_asides(request):
    """On a resource's page, a signed-in learner's coded state, balance, inline log and note."""
    match = request.resolver_match
    if match and match.view_name == "curriculum:resource_detail" and request.user.is_authenticated:
        return {"resource_aside": "progress/_resource_aside.html"}
    return {}
