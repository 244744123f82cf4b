import html as html_module
import re

from django.urls import reverse

from tests import bulk

URL = reverse("curriculum:guide")


def heading(html, anchor):
    """The text of the heading of the section with this id, tags removed."""
    section = html[html.index(f'id="{anchor}"') :]
    start = section.index("<h", 1)
    return html_module.unescape(
        re.sub(r"<[^>]+>", "", section[start : section.index("</h", start)])
    )


def test_the_guide_lists_parts_and_chapters_with_their_resources(client, seed):
    """Untitled parts and chapters read by number; each shows its paired resources and timing."""
    html = client.get(URL, headers={"accept-language": "en"}).content.decode()
    assert 'id="part-9"' in html
    assert "Part 2, chapter 5" in html
    assert html.index("Part 1") < html.index("Part 9")
    part_9 = html[html.index('id="part-9"') :]
    assert "Before reading" in part_9
    assert "Profiling and Integrating CUDA kernels" in part_9


def test_the_guide_query_count_does_not_grow(client, seed, django_assert_num_queries):
    """Ten times as many pairings cost the same queries: the revision token, once built."""
    client.get(URL)  # builds this process's copy of the curriculum (structure.py)
    with django_assert_num_queries(1):
        client.get(URL)
    bulk.resources(580, "more")  # each paired with a part of its own
    with django_assert_num_queries(16):  # the token, then the rebuilt curriculum
        client.get(URL)
    with django_assert_num_queries(1):
        assert client.get(URL).status_code == 200


def test_a_curators_edit_is_on_the_next_guide(client, seed):
    """The guide built once per curriculum revision is rebuilt after an edit, in each language."""
    from curriculum.models import Part

    client.get(URL, headers={"accept-language": "en"})
    client.get(URL, headers={"accept-language": "fr"})
    Part.objects.filter(number=9).update(title_en="Profiling", title_fr="Profilage")
    assert "Part 9 · Profiling" in client.get(URL, headers={"accept-language": "en"}).text
    assert "Partie 9 · Profilage" in client.get(URL, headers={"accept-language": "fr"}).text


def test_the_guide_titles_what_the_chapter_states_and_says_title_to_come_elsewhere(client, seed):
    """Part 1 and the four chapters carry the titles the seed states; the other parts say that
    their title is to come, in each language."""
    english = client.get(URL, headers={"accept-language": "en"}).text
    french = client.get(URL, headers={"accept-language": "fr"}).text

    assert heading(english, "part-1") == "Part 1 · How a GPU works"
    assert heading(english, "chapter-2-5") == "Part 2, chapter 5 · Reductions"
    assert heading(english, "chapter-7-3") == "Part 7, chapter 3 · Flash Attention"
    assert heading(english, "part-9") == "Part 9 · title to come"
    assert heading(french, "part-1") == "Partie 1 · Le fonctionnement d'un GPU"
    assert heading(french, "chapter-2-5") == "Partie 2, chapitre 5 · Les réductions"
    assert heading(french, "part-2") == "Partie 2 · titre à venir"


def test_a_curators_title_replaces_title_to_come(client, seed):
    """A title written in admin takes the placeholder's place."""
    from curriculum.models import Part

    Part.objects.filter(number=3).update(title_en="Performance", title_fr="Performance")
    html = client.get(URL, headers={"accept-language": "en"}).text
    assert heading(html, "part-3") == "Part 3 · Performance"


def test_the_guide_links_to_the_written_guide_when_its_address_is_set(client, seed, settings):
    """GUIDE_URL set: the page links to it; unset: no link to a guide that has no address."""
    settings.GUIDE_URL = ""
    assert "Read the written guide" not in client.get(URL, headers={"accept-language": "en"}).text
    settings.GUIDE_URL = "https://guide.example/gpu/"
    html = client.get(URL, headers={"accept-language": "en"}).text
    link = re.search(r'<a href="([^"]+)"[^>]*>Read the written guide', html)
    assert link and link.group(1) == "https://guide.example/gpu/"
