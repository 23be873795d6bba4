"""The HTTP interface: one module per resource group of the specification. HTTP only:
parse the request, call the host, shape the answer."""
