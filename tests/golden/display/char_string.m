% char rows are quoted; char matrices and string arrays carry a header.
c = 'abc'
h = ['hello'; 'olleh']
col = 'abc'.'
s = "abc"
e = ""
planets = ["Mercury" "Gemini" "Apollo"; "Skylab" "Skylab B" "ISS"]
disp('abc')
disp(h)
disp("abc")
disp(["a" "b"])
