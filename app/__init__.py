"""Klub: an online card club for Lora and Preferans."""
