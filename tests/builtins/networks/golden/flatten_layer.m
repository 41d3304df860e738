% flattenLayer reference page, example: a named flatten layer shows only its name.
layer = flattenLayer('Name','flatten1')
