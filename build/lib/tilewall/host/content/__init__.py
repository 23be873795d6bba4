"""Sources, their catalogue of types, the media library and control-room layouts."""
