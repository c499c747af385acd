"""Computer players for Lora: rules (pocetnik) and sampling + open-cards search (iskusan, majstor)."""
