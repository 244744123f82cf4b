from django.urls import reverse

from tests import bulk

URL = reverse("curriculum:guide")


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
