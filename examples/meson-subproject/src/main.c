void print_fields(void);
void print_spawns(void);
void print_potions(void);

int main(void)
{
    print_fields();
    print_spawns();
    print_potions();
    return 0;
}
