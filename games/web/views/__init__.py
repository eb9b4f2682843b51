"""Views: parse the request, call a service or a page builder, render."""
