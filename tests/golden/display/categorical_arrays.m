% categorical arrays: the size header, columns as wide as their widest name, <undefined>
C = categorical({'a','b','a'})
pets = categorical(["dog" "cat" "" "bird"])
A = categorical({'medium' 'large'; 'small' 'xlarge'; 'large' 'medium'}, {'small' 'medium' 'large' 'xlarge'}, 'Ordinal', true)
c = categorical("one")
e = categorical({})
disp(pets)
classes = categories(pets)
n = countcats(pets)
