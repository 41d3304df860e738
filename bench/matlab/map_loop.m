% map_loop: containers.Map set and get with char keys and with numeric keys, and isKey.
if ~exist('n', 'var'), n = 2000; end
names = cell(1, 100);
for k = 1:100
    names{k} = sprintf('key%d', k);
end
chars = containers.Map();
numbers = containers.Map('KeyType', 'double', 'ValueType', 'any');
cpu0 = cputime;
tic;
for i = 1:n
    key = names{mod(i, 100) + 1};
    if isKey(chars, key)
        chars(key) = chars(key) + 1;
    else
        chars(key) = 1;
    end
    j = mod(i, 50);
    if isKey(numbers, j)
        numbers(j) = numbers(j) + i;
    else
        numbers(j) = i;
    end
end
wall = toc;
cpu = cputime - cpu0;
if chars.Count ~= min(n, 100) || sum(cell2mat(values(chars))) ~= n ...
        || sum(cell2mat(values(numbers))) ~= n*(n+1)/2
    error('bench:wrong', 'map_loop computed a wrong result');
end
fprintf('map_loop %.6f %.6f\n', cpu, wall);
