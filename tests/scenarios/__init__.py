"""Hand-worked scenarios from the rulebooks (seeds 000, 001, 002, 004), written before the rule
sets existed: the amounts come from the seeds, not from the code, so they can catch its mistakes."""
