"""The Club's settings, read from the environment (prefix ``KLUB_``) and ``.env``."""

from __future__ import annotations

import ipaddress
from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DATA_DIR = Path("data")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="KLUB_", env_file=".env", extra="ignore")

    database_url: str = Field(default=f"sqlite:///{DATA_DIR / 'klub.db'}")
    # PostgreSQL connections an instance keeps open (all it opens: a burst waits for one
    # rather than opening and closing connections; PostgreSQL's 100 by default serve three
    # instances of 30). SQLite opens one per thread.
    db_pool_size: int = Field(default=30, ge=1)
    # Threads for the blocking work of requests and sockets (database reads and writes, the
    # tables' engines): all of it holds the GIL but for the database's round trips, and
    # anyio's default of 40 made them fight for it. At a round's start, with hundreds of
    # sockets arriving, 40 threads took half again as much CPU as 8 and left the event loop
    # so little of the GIL that connections waited in the kernel's accept queue for
    # seconds (bench/evening.py, docs/performance.md).
    worker_threads: int = Field(default=8, ge=1, le=1000)
    redis_url: str | None = None
    site_origin: str = "http://127.0.0.1:8000"

    session_cookie: str = "klub_session"
    session_idle_hours: float = 24 * 7
    session_max_days: float = 30

    # Pause before a computer player acts, so people can follow the table.
    bot_delay_seconds: float = 0.4
    bot_workers: int = 4
    # The computer player of a bot seat proposed without a name (None: app.ai's default level).
    default_bot: str | None = None
    # Worker processes computing the replay's analyses (app/analysis/; each takes a core
    # for a few seconds per deal).
    analysis_workers: int = 1
    # Mine the problems (app/problems/) of each partie as it ends, in those workers; off,
    # only `python -m app problems backfill` mines (the tests leave it off but where they
    # test it: every partie a test finishes would be analysed).
    problems_mining: bool = True
    # How often the timer watcher looks for decisions whose time ran out.
    deadline_poll_seconds: float = 1.0
    # Slow parties (app/parties/slow.py): how many slow parties a member may play (or have
    # accepted) at once, and his vacation days a year (spent in whole hours).
    slow_parties_max: int = 20
    vacation_days_per_year: int = 10
    # How many past events of a table each instance keeps for reconnecting clients.
    event_history: int = 16
    # permessage-deflate on the sockets (uvicorn's ws_per_message_deflate) for the clients
    # that offer it, browsers all do: a table's bytes shrink about 13-fold for ~0.1 ms of
    # server CPU per action and ~44 KiB per socket (docs/performance.md, "The table's bytes").
    ws_per_message_deflate: bool = True
    # Garbage collector (app/gcpauses.py): freeze the survivors this often (0: leave the
    # collector alone), and collect everything, frozen objects included, this often.
    gc_freeze_seconds: float = 5.0
    gc_full_seconds: float = 3600.0

    # argon2id cost; None keeps argon2-cffi's defaults (64 MiB, 3 passes).
    argon2_time_cost: int | None = None
    argon2_memory_kib: int | None = None

    # The table page: how long a finished trick holds the next moves back (it then stays on
    # the table until the next card), in milliseconds; and the games' own table timings by
    # name, where they differ from their descriptors' (``GameDescriptor.timings``; the tests
    # make them short: KLUB_UI_TIMINGS='{"dalje_delay": 30}').
    ui_trick_pause_ms: int = 1500
    ui_timings: dict[str, int] = {}
    # Games from outside the Club's tree: their descriptor modules, comma-separated (each
    # defines DESCRIPTOR, as app/games/<game>/descriptor.py does), importable by the server,
    # e.g. KLUB_OUTSIDE_GAMES=klub_mygame.descriptor. Listed after the Club's own games.
    outside_games: str = ""

    chat_max_length: int = 500
    online_window_seconds: int = 120

    # Login throttling: this many failures within the window (per account and per address).
    login_max_failures: int = 10
    login_window_seconds: int = 15 * 60
    # Registration throttling: this many new accounts per client address within the window.
    register_max_per_address: int = 5
    register_window_seconds: int = 60 * 60

    # Push notices (app/push/): the VAPID key pair is made on the first start and kept in the
    # database; these override it (the private key as PEM, or base64url of its 32 bytes or
    # DER; the public key, if given, must be the private key's). The subject is the contact
    # the push services see (mailto: or https:); by default the site, or mailto:admin@<host>.
    vapid_private_key: str | None = None
    vapid_public_key: str | None = None
    vapid_subject: str | None = None
    # Push endpoints are https:// names of the public internet only (no addresses, no
    # private hosts, nothing that resolves to one). True also accepts http://127.0.0.1 and
    # http://[::1] (the tests' push receiver); never in production.
    push_allow_loopback: bool = False
    push_workers: int = 4  # threads posting to the push services
    push_timeout_seconds: float = 10.0
    # How often the push sender looks for due messages another instance queued or a retry.
    push_poll_seconds: float = 5.0
    # The bot API's limits (app/bots/limits.py, docs/bots.md): tables a bot sits at at once
    # (running, or proposals it accepted), words a second per token, new parties a day per
    # bot; an event stream line at least this often; the event stream's lease (one stream
    # per bot, over every instance) lasts this long unless renewed.
    bot_max_tables: int = 8
    bot_words_per_second: int = 20
    bot_parties_per_day: int = 200
    bot_keepalive_seconds: float = 5.0
    bot_stream_lease_seconds: float = 30.0
    # Chat messages a minute per bot (its table's chat, scope bot:chat).
    bot_chat_per_minute: int = 6
    # The bot ladder (app/bots/ladder.py): keep a weekly bots' tournament announced.
    bot_ladder: bool = False

    # The reverse proxies whose X-Forwarded-For, X-Forwarded-Proto and X-Request-ID are
    # believed (app/web/proxies.py): addresses or networks (CIDR), comma-separated; empty
    # trusts none. Loopback by default, as uvicorn's own default: a proxy on this machine.
    trusted_proxies: str = "127.0.0.1,::1"
    # GET /metrics (app/web/metrics.py) answers loopback and the trusted proxies' addresses,
    # and anyone who sends this token (Authorization: Bearer ...); everyone else gets a 404.
    metrics_token: str | None = None
    # Log lines: "text" (uvicorn's own), or "json": one JSON object a line, with the
    # request's id (app/logs.py).
    log_format: Literal["text", "json"] = "text"

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_parse(cls, value: str) -> str:
        parse_networks(value)  # a typo stops the start instead of trusting nothing silently
        return value

    @property
    def secure_cookies(self) -> bool:
        return self.site_origin.startswith("https://")

    @property
    def cookie_name(self) -> str:
        """The session cookie's name: ``__Host-`` prefixed over https (Secure, Path=/, no Domain)."""
        return f"__Host-{self.session_cookie}" if self.secure_cookies else self.session_cookie


@lru_cache
def get_settings() -> Settings:
    return Settings()


# KLUB_TRUSTED_PROXIES (app/web/proxies.py reads it; checked here, when the settings load)
Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_networks(spec: str) -> list[Network]:
    """``KLUB_TRUSTED_PROXIES``: addresses or CIDR networks, comma-separated; ValueError names a bad one."""
    networks = []
    for item in spec.split(","):
        item = item.strip()
        if not item:
            continue
        try:
            networks.append(_plain_network(ipaddress.ip_network(item, strict=False)))
        except ValueError:
            raise ValueError(f"{item!r} is neither an IP address nor a network such as 10.0.0.0/8") from None
    return networks


def _plain_network(network: Network) -> Network:
    if isinstance(network, ipaddress.IPv6Network) and network.prefixlen >= 96:
        mapped = network.network_address.ipv4_mapped  # ::ffff:10.0.0.0/104 is 10.0.0.0/8
        if mapped is not None:
            return ipaddress.ip_network(f"{mapped}/{network.prefixlen - 96}")
    return network
