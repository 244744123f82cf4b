"""A self-signed certificate made for a test, in place of a real site's."""

import subprocess


def self_signed_certificate(folder, common_name, *extra):
    """Writes key.pem and cert.pem (RSA, valid one day) into folder; returns their paths."""
    key, certificate = folder / "key.pem", folder / "cert.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-keyout", key, "-out", certificate, "-subj", f"/CN={common_name}", *extra],
        check=True, capture_output=True,
    )  # fmt: skip
    return key, certificate
