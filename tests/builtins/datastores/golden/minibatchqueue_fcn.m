% MiniBatchFcn: one cell of observations for each variable, several outputs
ds = arrayDatastore((1:6)');
mbq = minibatchqueue(ds, 2, MiniBatchSize=3, MiniBatchFcn=@squaresAndCubes, ...
    OutputAsDlarray=[1 0], OutputCast={'double', 'double'});
[S, C] = next(mbq)
class(S)
class(C)
mbq.MiniBatchFcn
% an error in the mini-batch function reaches the caller with its identifier
bad = minibatchqueue(ds, 1, MiniBatchFcn=@failingBatch);
try
    X = next(bad);
catch err
    disp(err.identifier)
    disp(err.message)
end
% so does an error in a transform function
tds = transform(ds, @failingTransform);
try
    X = read(tds);
catch err
    disp(err.identifier)
    disp(err.message)
end

function [S, C] = squaresAndCubes(x)
    x = cat(1, x{:});
    S = x .^ 2;
    C = x .^ 3;
end

function X = failingBatch(x)
    error("demo:badBatch", "The mini-batch of %d observations is rejected.", numel(x));
end

function y = failingTransform(x)
    error("demo:badTransform", "The read is rejected.");
end
