"""Stations and displays, video walls, zones and mirror groups."""
