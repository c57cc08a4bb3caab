x=hello; echo ${x^^} ${x:1:3} ${x%l*} ${x#h} ${x/l/L}
