"""What the computer players of the trick games (Lora, Lórum) share: a seat's knowledge read
from its view, dealing the unseen cards, the rule-based player and its playouts, the
open-cards trick searches and the PIMC search levels."""
