"""Caravan, the card game of Fallout: New Vegas, with the power, nv, foxon and karavane rules."""
