"""What is written down: the banker's commands, their JSON form, and each event type's schema
(with the plain checks generated from it)."""
