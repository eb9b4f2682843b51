"""The web tier: views, forms, page contexts, the board and its actions, rendering ahead."""
