% IterationDimension=2 reads columns; a cell array is read one cell at a time
X = reshape(1:12, 3, 4);
ds = arrayDatastore(X, IterationDimension=2);
c = read(ds)
ds.IterationDimension = 1;
r = read(ds)
cds = arrayDatastore({'one'; [1 2 3]; "three"});
while hasdata(cds)
    value = read(cds)
end
s = arrayDatastore(["a"; "b"; "c"], OutputType="same", ReadSize=2);
first = read(s)
second = read(s)
