"""The audit: is this the history that was written, and could it have been written?"""
