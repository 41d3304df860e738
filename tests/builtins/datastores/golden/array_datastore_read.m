% arrayDatastore over a matrix: display, one row a read, ReadSize and OutputType
A = magic(4);
arrds = arrayDatastore(A)
data = read(arrds)
while hasdata(arrds)
    data = read(arrds);
end
data
arrds.ReadSize = 3;
reset(arrds)
data = read(arrds)
data = read(arrds)
arrds2 = arrayDatastore(A, "ReadSize", 3, "OutputType", "same")
data = read(arrds2)
all = readall(arrds2)
p = preview(arrds2)
try
    read(arrds2); read(arrds2);
catch err
    disp(err.identifier)
end
