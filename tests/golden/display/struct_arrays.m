% Struct arrays list their field names only.
datInfo = struct('name', {'a', 'b'}, 'event256', {1, 2})
n = struct('a', {1, 2, 3})
n0 = repmat(struct(), 1, 2)
disp(datInfo)
format compact
datInfo
format loose
