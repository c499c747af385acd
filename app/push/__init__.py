"""Push notices to the members' devices (Web Push with VAPID): app/push/worker.py."""
