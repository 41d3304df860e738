% reluLayer reference page, first example: a named ReLU layer shows only its name.
layer = reluLayer(Name="relu1")
