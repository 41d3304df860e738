% the epoch loop of a custom training loop: shuffle, then next while hasdata
rng(0)
x = (1:10)';
t = 2 * x;
mbq = minibatchqueue(combine(arrayDatastore(x), arrayDatastore(t)), ...
    MiniBatchSize=4, MiniBatchFormat=["BC", "BC"]);
for epoch = 1:2
    shuffle(mbq);
    iteration = 0;
    while hasdata(mbq)
        [X, T] = next(mbq);
        iteration = iteration + 1;
        fprintf("epoch %d batch %d: %d observations, T == 2*X: %d, format %s\n", ...
            epoch, iteration, size(X, 2), isequal(extractdata(T), 2 * extractdata(X)), dims(X));
    end
end
hasdata(mbq)
try
    X = next(mbq);
catch err
    disp(err.identifier)
    disp(err.message)
end
reset(mbq)
hasdata(mbq)
[X, T] = next(mbq);
class(X)
underlyingType(X)
