"""Classic Rallyman (2009) with its Dirt extension: zone boards, routes, rules, lines, course sheet, road book."""
