% Wide cell rows wrap in Columns blocks like numeric rows.
FooCellArray = {'Foo1', 'Foo2', 'Foo3', 'Foo4', 'Foo5', 'Foo6', 'Foo7'}
format compact
FooCellArray
format loose
