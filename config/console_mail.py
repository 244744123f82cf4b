"""The e-mail backend used without an SMTP server: each message printed as a person reads it.

Django's console backend prints the wire format, where a body with long lines or accents is
quoted-printable or base64: a password-reset link comes out cut by "=" and "=3D" and cannot be
copied. This one prints the headers, then each text part decoded, so every link is on one line.
"""

from django.core.mail.backends.console import EmailBackend as ConsoleBackend

ENCODING_HEADERS = {"content-transfer-encoding", "mime-version"}


class EmailBackend(ConsoleBackend):
    def write_message(self, message):
        msg = message.message()
        for name, value in msg.items():
            if name.lower() not in ENCODING_HEADERS:
                self.stream.write(f"{name}: {value}\n")
        for part in msg.walk():
            if part.get_content_maintype() == "text" and not part.is_attachment():
                self.stream.write(f"\n{part.get_content()}")
            elif part.is_attachment():
                self.stream.write(f"\n[attachment: {part.get_filename()}]\n")
        self.stream.write("-" * 79 + "\n")
