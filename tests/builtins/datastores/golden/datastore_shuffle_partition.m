% shuffle returns a shuffled copy (rng repeats it); partition splits the observations
rng(1)
ds = arrayDatastore((1:6)', OutputType="same", ReadSize=6);
shuffled = shuffle(ds);
a = read(shuffled)';
isequal(sort(a), 1:6)
rng(1)
again = shuffle(ds);
isequal(read(again)', a)
original = read(ds)'
numpartitions(ds)
ds1 = arrayDatastore((1:7)', OutputType="same", ReadSize=10);
parts = [read(partition(ds1, 3, 1)); read(partition(ds1, 3, 2)); read(partition(ds1, 3, 3))]'
isShuffleable(ds1)
isPartitionable(ds1)
s = subset(ds1, [7 1]);
read(s)'
progress(ds1)
read(ds1);
progress(ds1)
try
    partition(ds1, 3, 4);
catch err
    disp(err.identifier)
end
