void print_fields(void);
void print_spawns(void);

int main(void)
{
    print_fields();
    print_spawns();
    return 0;
}
