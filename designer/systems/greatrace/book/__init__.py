"""What The Great Race prints: the map drawn as SVG (``draw``), the road book PDF (``roadbook``) and its pages
for the table, the components to lay and bag and the score sheet (``table_sheets``).

May import :mod:`designer.core`, :mod:`designer.systems.greatrace.files` and
:mod:`designer.systems.greatrace.driving`; never another game system or a front end.
"""
