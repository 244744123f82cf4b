from django.urls import reverse


def test_a_resource_page_shows_links_pairing_and_series(client, seed):
    """GPU MODE #9: its video, notes, code, chapter 5 of part 2, the series' Discord."""
    url = reverse("progress:resource_detail", args=["gpu-mode-9"])
    html = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert "https://www.youtube.com/watch?v=09wntC6BT5o" in html
    assert "https://christianjmills.com/posts/cuda-mode-notes/lecture-009/" in html
    assert "With Part 2, chapter 5" in html
    assert "https://discord.gg/gpumode" in html
    assert "Why GPU MODE is different" in html


def test_the_start_here_video_says_why(client, seed):
    """How GPU Computing Works carries the guide's reason to start with it."""
    url = reverse("progress:resource_detail", args=["how-gpu-computing-works"])
    html = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert "Start here" in html
    assert "If you watch only one video about the GPU" in html
    assert "1\u00a0h" in html


def test_a_followed_resource_shows_no_duration(client, seed):
    """A conference is followed, not watched."""
    url = reverse("progress:resource_detail", args=["isca-micro"])
    html = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert "Followed over time" in html
    assert 'href="https://www.microarch.org/"' in html


def test_a_resource_without_links_says_none_is_known(client, seed):
    """Unknown links are not invented."""
    url = reverse("progress:resource_detail", args=["ppopp"])
    html = client.get(url, headers={"accept-language": "en"}).content.decode()
    assert "No link is known yet" in html


def test_an_unknown_slug_is_404(client, db):
    """No such resource."""
    assert client.get(reverse("progress:resource_detail", args=["nope"])).status_code == 404
