% while_if: a while loop whose body takes one of three branches.
k = 0;
s = 0;
c = 0;
cpu0 = cputime;
tic;
while k < 500000
    k = k + 1;
    if s >= 100
        s = s - 97;
    elseif s < 50
        s = s + 3;
    else
        s = s + 7;
        c = c + 1;
    end
end
wall = toc;
cpu = cputime - cpu0;
if k ~= 500000 || c == 0
    error('bench:wrong', 'while_if computed k=%g c=%g', k, c);
end
fprintf('while_if %.6f %.6f\n', cpu, wall);
