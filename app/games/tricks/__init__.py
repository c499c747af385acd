"""What Lora and Lórum share: the seven trick and layout contracts in their order of 28
deals of four players (``contracts``), and the deals that play them (``deal``: trick
play, the layout, ``dalje``). Each game's package builds its partie on them."""
