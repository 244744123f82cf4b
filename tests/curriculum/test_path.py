from django.urls import reverse

URL = reverse("progress:path")


def test_the_path_shows_stages_and_steps_in_order_with_notes(client, seed):
    """Week 1 comes first, the freeCodeCamp course says 12 h in several sittings."""
    html = client.get(URL, headers={"accept-language": "en"}).content.decode()
    positions = [html.index(title) for title in ("Week 1", "Week 2-3", "Week 4", "Then, as needed")]
    assert positions == sorted(positions)
    assert "12 h, in several sittings" in html
    assert html.index("How GPU Computing Works") < html.index("Getting Started With CUDA")


def test_the_path_states_the_one_to_three_rule(client, seed):
    """One hour of video for three hours of code."""
    html = client.get(URL, headers={"accept-language": "en"}).content.decode()
    assert "One hour of video for three hours of code." in html
    assert "The ratio that works: one hour of video for three hours of code." in html


def test_the_architecture_step_lists_the_session_for_each_gpu(client, seed):
    """Without knowing the learner's GPU, the step offers each generation's session."""
    html = client.get(URL).content.decode()
    step = html[html.index("step--architecture") :]
    assert "/resources/gtc-architecture-hopper/" in step
    assert "/resources/gtc-architecture-rubin/" in step


def test_an_empty_database_says_the_path_is_not_loaded(client, db):
    """No crash before the loader ran."""
    html = client.get(URL, headers={"accept-language": "en"}).content.decode()
    assert "not loaded yet" in html


def test_the_path_opens_with_the_chapters_introduction_and_place_in_the_guide(client, seed):
    """The chapter's opening words and its neighbours in the guide are shown, as the seed has them."""
    html = client.get(reverse("progress:path")).content.decode()
    assert "Ce qui se regarde." in html
    assert "chapitre 2 · Vidéos et conférences" in html
    assert "Chapitre suivant : 3 · Papiers de recherche" in html
