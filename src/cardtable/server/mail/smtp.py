"""Sending e-mail through the SMTP server the operator configures (Settings.smtp_*,
docs/deploy.md "E-mail").

The standard library's smtplib speaks SMTP: `starttls` (port 587: a plain connection that
switches to TLS before anything else is said, refused if the server cannot), `tls` (port 465:
TLS from the first byte) or `none` (a relay on the same machine). Certificates are checked
with the system's trust store (`ssl.create_default_context`). The password comes from a file
(`--smtp-password-file`), never from the command line.

smtplib blocks, so each message is sent in a worker thread, one at a time in a process (a
small site sends a few messages an hour; a queue keeps the order and the SMTP server's load
low). A message whose sending fails is logged and dropped: the person asks again. Every
message gets a log line with its kind and the account's id, never the address's token or
the message's body (which holds the link).
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
import time
from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid

from cardtable.server.config import Settings

log = logging.getLogger("cardtable.mail")

#: seconds a connection to the SMTP server may take for each step
TIMEOUT = 30.0


@dataclass(frozen=True)
class Outgoing:
    """One message: to, subject, body (plain text), and what the log line says of it."""

    to: str
    subject: str
    body: str
    kind: str
    account_id: int


def configured(settings: Settings) -> bool:
    """Whether e-mail can be sent: an SMTP host, a sender and the site's address are set."""
    return bool(settings.smtp_host and settings.mail_from and settings.site_url)


class Mailer:
    """Sends `Outgoing` messages off the event loop, in order; `sent` and `failed` count
    them."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.available = configured(settings)
        self._lock = asyncio.Lock()
        self._tasks: set[asyncio.Task] = set()
        self.sent = 0
        self.failed = 0

    def message(self, out: Outgoing) -> EmailMessage:
        msg = EmailMessage()
        msg["From"] = self.settings.mail_from
        msg["To"] = out.to
        msg["Subject"] = out.subject
        msg["Date"] = formatdate(localtime=False)
        msg["Message-ID"] = make_msgid(domain=self.settings.mail_from.rpartition("@")[2]
                                       or None)
        msg["Auto-Submitted"] = "auto-generated"
        msg.set_content(out.body)
        return msg

    def _send_now(self, msg: EmailMessage) -> None:
        s = self.settings
        if s.smtp_security == "tls":
            conn: smtplib.SMTP = smtplib.SMTP_SSL(s.smtp_host, s.smtp_port, timeout=TIMEOUT,
                                                  context=ssl.create_default_context())
        else:
            conn = smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=TIMEOUT)
        with conn:
            if s.smtp_security == "starttls":
                conn.starttls(context=ssl.create_default_context())
            if s.smtp_user:
                conn.login(s.smtp_user, s.smtp_password or "")
            conn.send_message(msg)

    async def send(self, out: Outgoing) -> bool:
        """Send one message (in a thread, one at a time); False if it failed (logged)."""
        msg = self.message(out)
        async with self._lock:
            started = time.time()
            try:
                await asyncio.to_thread(self._send_now, msg)
            except (OSError, smtplib.SMTPException) as e:
                self.failed += 1
                log.warning("mail %s to account %s not sent: %s", out.kind, out.account_id,
                            type(e).__name__ + (f" {e}" if str(e) else ""))
                return False
            self.sent += 1
            log.info("mail %s to account %s sent at %.3f (%s, %.0f ms)", out.kind,
                     out.account_id, started, msg["Message-ID"],
                     (time.time() - started) * 1000)
            return True

    def send_later(self, out: Outgoing) -> None:
        """Send in the background: the request that asked for it is answered at once (its
        answer and its time never tell whether a message went out)."""
        self.later(self.send(out))

    def later(self, coro) -> None:
        """Run the coroutine `coro` in the background (kept until it ends; `close` waits)."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        """Wait for the messages under way (at shutdown)."""
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
