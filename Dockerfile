# The Club's server image: `docker compose up` runs it with PostgreSQL and Redis.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1
WORKDIR /srv/klub

COPY pyproject.toml README.md constraints.txt ./
COPY app ./app
RUN pip install -c constraints.txt .

COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static

RUN useradd --system --home /srv/klub klub && mkdir -p data && chown klub data
USER klub

EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/healthz', timeout=2).status != 200)"

# `serve` migrates the database, creates the first accounts when it is empty
# (their passwords are printed once, see `docker compose logs app`), then starts uvicorn.
CMD ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"]
